"""Mirror Mansion (Das Schloss der 1000 Spiegel): light paths, rules and a swap solver."""
