"""The Slack app (Bolt for Python): transport only, the core does the answering.

``app`` builds the Bolt app, ``rooms`` holds the listeners (one module per
kind: commands, events, actions, home, records), ``replies`` the responder and
guard they share, ``blocks`` and ``views`` build Block Kit, ``server`` runs
HTTP mode and ``socket_mode`` the WebSocket mode. Nothing here parses user
text; ``bot.conversation`` does.
"""
