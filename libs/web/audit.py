"""What every operator action's request carries: the reason the audit log records
(``libs.contracts.audit``)."""

from __future__ import annotations

import marshmallow as ma

from libs.web.contract import FullMatch
from libs.web.schemas import StrictSchema

REASON_MIN, REASON_MAX = 3, 500


# At least REASON_MIN characters that are not white space (and no NUL, which PostgreSQL text refuses).
_SAID = rf"(?:\s*[^\s\x00]){{{REASON_MIN}}}[^\x00]*"


def reason_field() -> ma.fields.String:
    return ma.fields.String(
        required=True,
        validate=[
            ma.validate.Length(min=REASON_MIN, max=REASON_MAX),
            FullMatch(_SAID, error=f"Say why in {REASON_MIN} characters at least, not only spaces."),
        ],
        metadata={
            "description": f"why ({REASON_MIN}-{REASON_MAX} characters), recorded in the audit log with "
            "the operator's name: say why, never who"
        },
    )


class ReasonIn(StrictSchema):
    reason = reason_field()
