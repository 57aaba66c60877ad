"""Pictures drawn by code with Pillow: card faces (uploaded as application emojis) and deal
diagrams for hand summaries.  Nothing here touches Discord or the event loop; the callers run
the drawing in worker threads."""
