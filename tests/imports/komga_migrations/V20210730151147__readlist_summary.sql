alter table readlist
    add column SUMMARY varchar not NULL default '';
