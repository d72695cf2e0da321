"""Shapes of the module's answers that more than one module of the package
uses: a field error is part of a CRD result and of an ``invalid_crd`` error.
This module imports nothing from the package, so that ``_errors`` and
``_crd`` can both depend on it without depending on each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field as _field
from typing import Any, Dict, Optional

__all__ = ["FieldError", "RuleRef"]


def _m(name: str, *, omit: bool = False, ptr: bool = False, seq: Any = None, obj: Any = None, null_empty: bool = False) -> Dict[str, Any]:
    """Field metadata: the member name and how the Go host's struct field
    marshals (``omitempty``; ``ptr``: a pointer, omitted only when nil;
    ``null_empty``: a nil slice, written ``null`` when empty) and decodes
    (``seq``: a list of ``seq`` values, ``obj``: a nested struct)."""
    return {"json": name, "omit": omit, "ptr": ptr, "seq": seq, "obj": obj, "null_empty": null_empty}


@dataclass(frozen=True)
class RuleRef:
    """An x-kubernetes-validations rule: where it sits in the version's schema
    (``schema_path``, e.g.
    ``openAPIV3Schema.properties[spec].x-kubernetes-validations[0]``) and its
    fields."""

    schema_path: str = _field(default="", metadata=_m("schemaPath"))
    rule: str = _field(default="", metadata=_m("rule"))
    message: str = _field(default="", metadata=_m("message", omit=True))
    message_expression: str = _field(default="", metadata=_m("messageExpression", omit=True))
    reason: str = _field(default="", metadata=_m("reason", omit=True))
    field_path: str = _field(default="", metadata=_m("fieldPath", omit=True))


@dataclass(frozen=True)
class FieldError:
    """One field error as kube-apiserver reports it (a Status cause).
    ``str(error)`` is the line kubectl prints: ``field: message``.

    Attributes:
        field: the field path, e.g. ``spec.replicas``, ``spec.items[0]``,
            ``<nil>`` for the root.
        type: ``FieldValueInvalid``, ``FieldValueRequired``,
            ``FieldValueForbidden``, ``FieldValueDuplicate``,
            ``FieldValueTypeInvalid``, ``FieldValueNotSupported``, ...
        message: the error without its path, e.g. ``Invalid value: 5: must
            be at most 3``.
        rule: the rule that produced it, for errors of x-kubernetes-validations
            rules (kube-apiserver does not say which rule failed; the module
            finds it). None when no rule matches, e.g. for "running out of
            cost budget".
    """

    field: str = _field(default="", metadata=_m("field"))
    type: str = _field(default="", metadata=_m("type"))
    message: str = _field(default="", metadata=_m("message"))
    rule: Optional[RuleRef] = _field(default=None, metadata=_m("rule", omit=True, obj=RuleRef))

    def __str__(self) -> str:
        return self.field + ": " + self.message
