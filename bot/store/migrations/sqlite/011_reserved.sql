-- PLACEHOLDER, NOT A MIGRATION OF ITS OWN: number 011 was reserved for the `anywhere` branch,
-- whose migration became 010; no branch holds it now.  The migration runner refuses a gap in
-- the numbers, so this no-op keeps `events2`'s 013 runnable.  Delete this file (both backends)
-- if a real 011 lands (two 011s make the runner refuse to start), or renumber 013 down.
SELECT 1;
