"""The warscribe command line (click)."""
