"""Live, offline and installable: the evening on every phone.

- ``events``: the Server-Sent Events stream of a session (``GET /api/v1/sessions/<id>/events``).
  A stream asks the database nothing while its session does not change: ``hub`` wakes it when a
  write commits in this process, or in another one (``listen``: PostgreSQL's LISTEN/NOTIFY, one
  connection per process; on SQLite one poll per process). Under ``companion serve`` the event
  loop holds the streams (``streams``), one read per change for all the streams of a session.
- ``views``: the big-screen TV view, the web app manifest, the service worker at the site root,
  the offline page, and the template helpers the score pages use (QR codes, stream address).
- ``state``: the only place that knows how a session is found and turned into JSON, so the way
  sessions are addressed can change without touching the rest.

The browser half is ``static/live.js`` (the stream → the page), ``static/offline.js`` (the
offline banner, the service worker's registration, the queue of games recorded offline) and
``static/sw.js``. No scoring rule is written in JavaScript: a game typed offline is sent as
typed to the JSON API, which scores it.
"""
