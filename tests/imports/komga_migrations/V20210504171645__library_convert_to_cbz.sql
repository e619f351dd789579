alter table library
    add column CONVERT_TO_CBZ boolean NOT NULL DEFAULT 0;
