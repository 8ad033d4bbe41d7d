"""Hostile input and careless hands (issue 11): each attack reproduced, then refused."""
