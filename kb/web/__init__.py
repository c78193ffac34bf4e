"""The web playground (`aslkb serve`): a page that answers the situation being
typed, and the JSON API it uses (docs/playground.md).

app.py is the WSGI application (routes, limits, static assets), service.py
answers one request with the project's own functions (the same JSON as the
command line), workers.py runs those answers in worker processes under a
timeout, server.py puts the application on waitress. Only server.py needs
the `web` extra.
"""
