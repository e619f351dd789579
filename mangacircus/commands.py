"""What the project's management commands share."""

# The system checks a command runs before it starts: the project's own (DATA writable, LIBRARY
# readable: library/apps.py, reader/apps.py), registered under this tag. Django's own checks (URLs,
# templates, security settings) import every view and took a third of each command's start
# (0.27 s of 0.8 s), for hundreds of starts a day under a supervisor; `manage.py check` runs them all.
OWN_CHECKS = ["mangacircus"]
