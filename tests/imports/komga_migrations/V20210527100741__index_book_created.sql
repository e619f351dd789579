create index idx__book__created_date    on BOOK (CREATED_DATE);

