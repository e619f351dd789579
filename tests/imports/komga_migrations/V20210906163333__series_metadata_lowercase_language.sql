update SERIES_METADATA
set language = lower(language);
