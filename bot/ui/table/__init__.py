"""The table message: its rendering and components, the publisher that keeps it current, score
sheets and hand summaries with their deal pictures."""
