"""Notifications to members by web push and email (issue 35): docs/notifications.md."""
