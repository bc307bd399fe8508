"""Mirror Mansion (Das Schloss der 1000 Spiegel): light paths, rules and a swap solver
(rules/), the camera's reading of the box and the `sim` film (vision/), and live play at the
table (table/); commands.py holds the CLI verbs, settings.py the sticker colours' section."""
