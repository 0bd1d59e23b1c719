"""Webhooks: a club's results, fixtures, draws and nights pushed to URLs its admins choose
(docs/webhooks.md)."""
