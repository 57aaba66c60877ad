-- PLACEHOLDER, NOT A MIGRATION OF ITS OWN: number 011 belongs to the `anywhere` branch, which was
-- not merged when the `i18n` branch added 012 (server languages).  The migration runner refuses
-- a gap in the numbers, so this no-op keeps 012 runnable on its own.  Delete this file (both
-- backends) when anywhere's 011 lands: two 011s make the runner refuse to start, so it cannot be
-- forgotten silently.
SELECT 1;
