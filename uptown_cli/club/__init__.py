"""Clubs playing by email: the mail that carries a game, receiving it, a folder of games at a
glance, reminders, ratings, the club's page, and the club judge that keeps the time.

- ``headers``: every value checked before it goes into a header or a file name.
- ``mail``: the message that carries a game, and its recipients.
- ``transport``: SMTP and sendmail.
- ``mime``: the game a received message carries, read with limits.
- ``boxes``: message files, mbox and Maildir read without waiting; the copy to take.
- ``inbox``: a received copy compared with the local one, and saved when it carries it on.
- ``status``: where each game of a folder stands.
- ``reminders``: which reminders are due, their text, and the log that sends each once.
- ``ratings``: openskill ratings over the finished games.
- ``judge``: the club judge's rulings: copies stamped, time kept, late players and void games.
- ``page``: the club's static HTML page, and the replay page of each finished game.
- ``judge_store``: a judge's folder, key and database: each message handled once, its outbox.
- ``judge_mailbox``: where a judge's messages come from: a pipe, a Maildir, IMAP.
- ``judge_run``: one run of a judge: handle, acknowledge, tick, send.
"""

__all__: list[str] = []
