"""The match service's use cases, each a class built once per process in ``root.build`` and named on
the service object (``service.MatchService``):

| module | use case |
|---|---|
| ``creation`` | start a match: practice, an operator's, a ``MatchRequested`` (or store its rejection) |
| ``commands`` | a player's command: decided, appended at the version it was decided on, dispatched |
| ``system`` | what the service decides by itself: reconnections, disconnections, forfeits, timeouts |
| ``bot`` | the practice bot's moves |
| ``sweep`` | the beat's sweep of everything due in every running match |
| ``polls`` | reads: a player's view, legal commands, events (long polls), their matches |
| ``limits`` | per-player caps (practice matches, open long-polls) |
| ``replies`` | what a player is answered: the events they may see, whom the match waits for |

They reach games through ``libs.games`` (via ``domain``) and the database through the adapters
(``repository``, ``store``, ``presence``, ``scheduling``, ``notify``).
"""
