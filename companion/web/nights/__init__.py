"""A club night: many tables, one evening, one standings (docs/nights.md).

- ``models``: the night, its players, rounds and tables (each table is a score session);
- ``service``: create a night, seat a round, take arrivals and leavers, its JSON and CSV;
- ``api``: ``/api/v1/nights``; ``views``: the host page, table cards, the TV view, the sheet;
- ``live``: the one place that follows the tables' sessions for the room's live view;
- ``ratings``: a group's ratings across evenings (openskill's Plackett–Luce).
"""
