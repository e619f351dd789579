alter table media_page
    add column FILE_SIZE int8 NULL;
