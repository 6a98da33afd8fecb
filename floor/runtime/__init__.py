"""The processes' wiring: serving the web app, the scheduler, the device process and the command line."""
