"""The league's embeds and paging components."""
