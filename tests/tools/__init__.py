"""Development tools built on the test kit: never shipped, never imported by the application."""
