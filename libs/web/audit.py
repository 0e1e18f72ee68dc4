"""What every operator action's request carries: the reason the audit log records
(``libs.contracts.audit``)."""

from __future__ import annotations

import marshmallow as ma

from libs.web.schemas import StrictSchema

REASON_MIN, REASON_MAX = 3, 500


def _said(value: str) -> None:
    if len(value.strip()) < REASON_MIN:
        raise ma.ValidationError(f"Say why in {REASON_MIN} characters at least.")


def reason_field() -> ma.fields.String:
    return ma.fields.String(
        required=True,
        validate=[ma.validate.Length(min=REASON_MIN, max=REASON_MAX), _said],
        metadata={
            "description": f"why ({REASON_MIN}-{REASON_MAX} characters), recorded in the audit log with "
            "the operator's name: say why, never who"
        },
    )


class ReasonIn(StrictSchema):
    reason = reason_field()
