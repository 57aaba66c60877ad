-- PLACEHOLDER, NOT A MIGRATION OF ITS OWN: number 007 belongs to the `infra` branch, which was
-- not merged when the `verify` branch added 008 (deal seeds).  The migration runner refuses a
-- gap in the numbers, so this no-op keeps 008 runnable on its own.  Delete this file (both
-- backends) when infra's 007 lands: two 007s make the runner refuse to start, so it cannot be
-- forgotten silently.
SELECT 1;
