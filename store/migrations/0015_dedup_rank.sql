-- dedup rank: the order in which align prefers every aligned function, as a sample
-- and as its cluster's representative (direct request function first, then quality,
-- then repository, path, qualname and start line). Decontam follows it when a
-- representative cannot stand for its cluster and when it applies the caps, so the
-- choice is made once, by one rule, and does not depend on row ids.

ALTER TABLE dedup ADD COLUMN rank INTEGER NOT NULL DEFAULT 0; -- 1 is the most preferred; 0 before align ranks it
