"""Europa Universalis: The Price of Power: minor actions and Income & Upkeep."""
