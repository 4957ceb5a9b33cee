-- Who writes this database (issue 16): 'journal', one node replaying its own journal, or 'cluster', the members of
-- an Aeron Cluster, whichever leads. Both number their events from 1, so a database written by one must never be
-- continued by the other: the high-water mark would skip the other's first events and its rows would collide. The
-- writer checks it on every connect and sets it with every batch. NULL: not written since this migration (a new
-- database, or a single node's from before cluster mode existed).
ALTER TABLE high_water_mark ADD COLUMN written_by TEXT CHECK (written_by IN ('journal', 'cluster'));
