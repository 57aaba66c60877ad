"""The Discord side every surface shares: the pace of requests and the channel-write budget,
where a table's messages go (a channel or an interaction's token), the click router and the
one answer to a failure."""
