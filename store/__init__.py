"""Persistence on eventsourcing: the application, transcoder, backends and log files."""
