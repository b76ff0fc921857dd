"""The whole table as a game: the banker's best response reading every box, and the table's exploitability."""
