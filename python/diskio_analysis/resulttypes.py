# SPDX-License-Identifier: MIT
"""The schema's objects as the reader's dataclasses, their fields made
from the schema (_result_types.py, which python/make-result-types.py
makes from doc/result-schema.json when diskio is built).

@schema_object("rate") makes a class the dataclass of the schema's
object "rate" with a field for each of its keys, in the schema's order:
the key's name, its type (Optional unless the reader gives it a default:
a list or name -> value object is [] or {} when absent, unless null is
one of its values) and what the reader checks of its value (the
schema's minimum, enum, minLength and maxItems; resultread.py reads
it).  So a key added to the schema is a field of the reader with no
edit here; what the schema cannot say, the class says, as its body:

    name = read(default, required=..., count=..., ...)
        how the reader reads a key beyond the schema: the value a file
        that lacks it means (files of earlier releases), whether missing
        or null is an error, a count (resultkeys.count_key()), and where
        the reader is looser than the schema, as it always has been
        (minimum=0 below the schema's 1, choices=() for an enum that may
        grow, number=True for an integer key read as any number, nonempty
        for a name), each with its reason;
    name: T = own(...) or derived(...)
        a field the class reads itself (own(): at the place of the key it
        comes from) or works out (derived(): before the keys if declared
        before the first read() or own(), else after them).

An object no class is declared for (a $def the schema gains) is made a
plain dataclass of its keys, so that a key of such an object is read too.

mypy cannot see fields made when the code runs: each class also extends
<Class>Keys of _result_keys.py (made from the schema and this package's
classes by python/make-result-types.py), the annotations of its keys,
typed as here; object when the code runs.
"""

import dataclasses
import importlib
from typing import Any, Dict, List, Optional, Tuple

from ._result_types import OBJECTS
from .resultkeys import count_key, key, key_list

# the schema's object -> its class: declared below the modules'
# schema_object(), or made for it (schema_class())
_CLASSES: Dict[str, type] = {}
# the modules that declare classes for the schema's objects: imported
# before a class is made for an object, so none is made for theirs
DECLARING = ("resultenv", "resultfigures", "resultinterference", "resultlatency",
             "resultrun")
_UNSET: Any = object()
# typing's List and Dict, of types known only when the code runs
_LIST: Any = List
_DICT: Any = Dict
_SCALARS = {"bool": bool, "int": int, "float": float, "str": str}


class Read:
    """What read() says of a key: resulttypes.py's docstring."""
    __slots__ = ("default", "required", "count", "number", "facts")

    def __init__(self, default: Any, required: bool, count: bool, number: bool,
                 facts: Dict[str, Any]) -> None:
        self.default, self.required, self.count = default, required, count
        self.number, self.facts = number, facts


def read(default: Any = None, *, required: bool = False, count: bool = False,
         number: bool = False, minimum: Any = _UNSET, choices: Any = _UNSET,
         nonempty: Any = _UNSET, most: Optional[str] = None) -> Any:
    """How the reader reads the key of this name beyond what the schema
    says (the module's docstring); most: whose limit the schema's
    maxItems is, for the message."""
    facts = {name: value for name, value in (("minimum", minimum), ("choices", choices),
                                             ("nonempty", nonempty))
             if value is not _UNSET}
    if most is not None:
        facts["most_says"] = most
    return Read(default, required, count, number, facts)


def python_type(kind: str) -> Any:
    """The Python type of a kind of _result_types.py."""
    if kind.startswith("object:"):
        return schema_class(kind[len("object:"):])
    if kind.startswith("list:"):
        return _LIST[python_type(kind[len("list:"):])]
    if kind.startswith("dict:"):
        return _DICT[str, python_type(kind[len("dict:"):])]
    if kind not in _SCALARS:
        raise TypeError(f"the schema's kind {kind!r} has no Python type")
    return _SCALARS[kind]


def schema_class(name: str) -> type:
    """The class of the schema's object name: the one declared for it, or
    a plain dataclass of its keys made for it (EnvDevice for env_device)."""
    for module in DECLARING if name not in _CLASSES else ():
        importlib.import_module("." + module, __package__)
    if name not in _CLASSES:
        if name not in OBJECTS:
            raise KeyError(f"the result schema has no object {name!r}")
        words = name.replace(".", "_").split("_")
        made: type = type("".join(w.capitalize() for w in words), (),
                          {"__doc__": f"The schema's object {name}.", "__module__": __name__})
        schema_object(name)(made)
    return _CLASSES[name]


def key_field(row: Tuple[Any, ...], how: Read) -> Tuple[Any, "dataclasses.Field[Any]"]:
    """The annotation and field of a key of the schema's row, read as how
    says."""
    name, kind, nullable, minimum, choices, nonempty, most = row
    kind = "float" if how.number else kind
    kind_type = python_type(kind)
    if kind.startswith(("list:", "dict:")) and not nullable:
        factory = list if kind.startswith("list:") else dict
        return kind_type, key_list(required=how.required, factory=factory)
    hint = kind_type if how.default is not None else Optional[kind_type]
    if how.count:
        if kind != "int":
            raise TypeError(f"{name}: a count is an integer key, not {kind}")
        return hint, count_key(how.default, required=how.required)
    facts = {"minimum": minimum, "nonempty": nonempty, "choices": choices}
    facts.update((k, v) for k, v in how.facts.items() if k in facts)
    limit = None if most is None else (most, how.facts.get("most_says", "the schema allows"))
    return hint, key(how.default, required=how.required, most=limit, **facts)


def claimed_key(name: str, f: "dataclasses.Field[Any]") -> str:
    """The key of the schema the own() field name is read from
    (device.total: device)."""
    return (f.metadata.get("json") or name).split(".")[0]


def declared(cls: type, rows: Tuple[Any, ...]) -> Tuple[Dict[str, Read], List[Any], List[Any]]:
    """The class's read()s, and its own() and derived() fields, each
    (name, annotation, field): the derived ones before the keys and the
    rest (own and derived after them)."""
    keys = {row[0] for row in rows}
    hints = cls.__dict__.get("__annotations__", {})
    reads: Dict[str, Read] = {}
    before: List[Any] = []
    after: List[Any] = []
    for name, value in list(cls.__dict__.items()):
        if isinstance(value, Read):
            if name not in keys:
                raise TypeError(f"{cls.__name__}.{name}: no key of the schema's object")
            reads[name] = value
            delattr(cls, name)
        elif isinstance(value, dataclasses.Field):
            is_derived = value.metadata.get("derived")
            (before if is_derived and not reads and not after else after).append(
                (name, hints[name], value))
    return reads, before, after


def schema_object(name: str) -> Any:
    """The class decorator: the class as the slotted dataclass of the
    schema's object name (the module's docstring)."""
    def make(cls: type) -> type:
        if name in _CLASSES:
            raise TypeError(f"{cls.__name__}: {name} already has its class, "
                            f"{_CLASSES[name].__name__} (declare it before its use)")
        base, rows = OBJECTS[name]
        if base is not None and not issubclass(cls, schema_class(base)):
            raise TypeError(f"{cls.__name__} extends {base}: a subclass of its class")
        reads, before, after = declared(cls, rows)
        owners = {claimed_key(n, f) for n, _, f in after if f.metadata.get("own")}
        ordered = list(before)
        for row in rows:
            if row[0] in owners:
                ordered += [(n, hint, f) for n, hint, f in after if f.metadata.get("own")
                            and claimed_key(n, f) == row[0]]
            else:
                ordered.append((row[0],) + key_field(row, reads.get(row[0], Read(
                    None, False, False, False, {}))))
        ordered += [entry for entry in after if entry not in ordered]
        cls.__annotations__ = {n: hint for n, hint, _ in ordered}
        for n, _, f in ordered:
            setattr(cls, n, f)
        made: type = dataclasses.dataclass(slots=True)(cls)
        _CLASSES[name] = made
        return made
    return make
