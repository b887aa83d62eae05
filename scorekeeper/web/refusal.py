"""A Save that no resend can fix, answered as such to the deal form's script.

The script keeps every Save on the phone until the server has answered it, and sends it
again by itself while there is no answer (no connection, a server error). Some answers are
final: the game is over, its tour was closed, its link was replaced, it was deleted, it is
read-only now, the deal being changed is gone. Sent again, such a Save would be refused
again for ever; so the answer says so in one shape, whatever the reason:

    {"saved": false, "final": "<reason>", "refused": "<why, in the page's language>", ...}

with a status that says the same (403, 404, 409, 410). The script then drops the Save from
the phone's queue and shows why, with the deal as it was entered, until the scorer has read
it (static/app.js: Pending, Refusals). Without the script the same refusals are pages.
"""

from __future__ import annotations

from typing import Literal

from flask import jsonify, make_response, request
from werkzeug.wrappers import Response

Reason = Literal["game_over", "tour_closed", "read_only", "link_gone", "game_deleted", "deal_gone"]

#: The status of each final refusal.
STATUS: dict[Reason, int] = {
    "game_over": 409,
    "tour_closed": 403,
    "read_only": 403,
    "link_gone": 404,
    "game_deleted": 410,
    "deal_gone": 404,
}


def wants_json() -> bool:
    """A Save sent by the deal form's script (it reads the answer as JSON)."""
    return request.headers.get("X-Save") == "json"


def final(reason: Reason, message: str) -> Response:
    """The final refusal of a Save, for the script: nothing was written, never will be."""
    body: dict[str, object] = {
        "saved": False,
        "final": reason,
        "refused": message,
        "ok": False,
        "top": [],
        "errors": {},
        "later": [],
        "entries": [],
        "checked": "",
    }
    return make_response(jsonify(body), STATUS[reason])
