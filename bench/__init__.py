"""`make bench`: figures measured against a peer in the same run (DESIGN.md "Contracts")."""
