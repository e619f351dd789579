drop table if exists SPRING_SESSION_ATTRIBUTES;
drop table if exists SPRING_SESSION;
