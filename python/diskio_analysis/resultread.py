# SPDX-License-Identifier: MIT
"""The one generic reader of result.py's objects: read_object() reads a
dataclass of the schema from its JSON object, each field by its
annotation and metadata (resultkeys.py's key() and the like), then the
class's own fields by its _read_rest; and the readers a _read_rest
shares: a run's latency parts, a HIST's buckets."""

import dataclasses
import operator
import typing
from typing import Any, Callable, Dict, List, Tuple, Type, TypeVar

from .jsonfile import MISSING, JsonFile, Triples, json_kind, json_path
from .resultkeys import PARTS, json_key

T = TypeVar("T")
# how to read a value: (file, value, its JSON path) -> the value or None
Reader = Callable[[JsonFile, Any, str], Any]
# per class: its fields read from keys (field, key, reader), whether it
# has a where, _src and _node, and its _read_rest
_PLANS: Dict[type, Tuple[List[Tuple[str, str, Reader]], Tuple[bool, bool, bool]]] = {}


NONE_TYPE = type(None)


def unwrap_optional(hint: Any) -> Any:
    """X of Optional[X]; hint itself otherwise."""
    if typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not NONE_TYPE]
        if len(args) == 1:
            return args[0]
    return hint


def plan(cls: type) -> Tuple[List[Tuple[str, str, Reader]], Tuple[bool, bool, bool]]:
    """How to read an object of class cls, worked out once from its
    fields' annotations and metadata."""
    if cls not in _PLANS:
        hints = typing.get_type_hints(cls)
        steps = [(f.name, json_key(f), value_reader(hints[f.name], f.metadata))
                 for f in dataclasses.fields(cls)
                 if not f.metadata.get("derived") and not f.metadata.get("own")]
        names = {f.name for f in dataclasses.fields(cls)}
        _PLANS[cls] = steps, ("where" in names, "_src" in names, "_node" in names)
    return _PLANS[cls]


def read_object(src: JsonFile, node: Any, where: str, cls: Type[T]) -> T:
    """The object of class cls (one of the schema's objects above) that
    the JSON object node at where holds: every field that is a key of it
    read by its annotation and metadata (key()); then the class's own
    fields (own()) by its _read_rest."""
    node = src.as_object(node, where)
    steps, (has_where, has_src, has_node) = plan(cls)
    values: Dict[str, Any] = {}
    prefix = where + "." if where else ""
    for name, json_name, reader in steps:
        # every key of the schema is an identifier: its path is prefix.key
        value = reader(src, node.get(json_name, MISSING), prefix + json_name)
        if value is not None:
            values[name] = value
    if has_where:
        values["where"] = where
    if has_src:
        values["_src"] = src
    if has_node:
        values["_node"] = node
    obj = cls(**values)
    finish = getattr(obj, "_read_rest", None)
    if finish is not None:
        finish(src, node)
    return obj


def value_reader(hint: Any, meta: Any) -> Reader:
    """The reader of a value of type hint (bool, int, float, str, a
    dataclass, or a list or name -> value object of them): it returns
    None when the value is absent or null and not required."""
    kind = unwrap_optional(hint)
    optional = not meta.get("required", False)
    minimum = meta.get("minimum")
    origin = typing.get_origin(kind)
    if kind is bool:
        def read_bool(src: JsonFile, value: Any, where: str) -> Any:
            if (value is MISSING or value is None) and optional:
                return None
            if not isinstance(value, bool):
                src.fail(where, f"{json_kind(value)}, expected true or false")
            return value
        return read_bool
    if meta.get("count"):
        if kind is not int:
            raise TypeError(f"a count is declared int, not {hint!r}")
        return lambda src, value, where: src.as_count(value, where, optional=optional)
    if kind is int:
        return lambda src, value, where: src.as_int(value, where, optional=optional,
                                                    minimum=minimum)
    if kind is float:
        return lambda src, value, where: src.as_number(value, where, optional=optional,
                                                       minimum=minimum)
    if kind is str:
        nonempty, choices = meta.get("nonempty", False), meta.get("choices")

        def read_str(src: JsonFile, value: Any, where: str) -> Any:
            text = src.as_string(value, where, optional=optional, nonempty=nonempty)
            if text is not None and choices and text not in choices:
                src.fail(where, f"'{text}', expected one of: {', '.join(choices)}")
            return text
        return read_str
    if dataclasses.is_dataclass(kind):
        def read_nested(src: JsonFile, value: Any, where: str) -> Any:
            node = src.as_object(value, where, optional=optional)
            return None if node is None else read_object(src, node, where, kind)
        return read_nested
    if origin in (list, dict):
        item = value_reader(typing.get_args(kind)[-1], {"required": True})

        most = meta.get("most")

        def read_items(src: JsonFile, value: Any, where: str) -> Any:
            if origin is list:
                items = src.as_list(value, where, optional=optional)
                if most is not None and items is not None and len(items) > most[0]:
                    src.fail(where, f"{len(items)} items, more than the "
                             f"{most[0]} {most[1]}: no measurement")
                return None if items is None else [
                    item(src, v, f"{where}[{i}]") for i, v in enumerate(items)]
            node = src.as_object(value, where, optional=optional)
            return None if node is None else {
                name: item(src, v, json_path(where, name)) for name, v in node.items()}
        return read_items
    raise TypeError(f"no reader for {hint!r}")


def read_parts(src: JsonFile, latency: Dict[str, Any], where: str,
               parts: Dict[str, Any], cls: type) -> None:
    """Each part latency gives (null ones left out)."""
    for name in PARTS:
        node = src.get_object(latency, where, name, optional=True)
        if node is not None:
            parts[name] = read_object(src, node, json_path(where, name), cls)


def read_buckets(src: JsonFile, buckets: Any, where: str) -> Triples:
    """buckets, [[lowest_ns, highest_ns, count], ...] (the Triples
    parse_json made of them, or a list), as Triples of (lowest_ns,
    highest_ns, count): whole numbers from 0 up, no bucket's highest
    below its lowest."""
    triples = buckets if isinstance(buckets, Triples) else Triples.of(buckets)
    if triples is None:
        # an item that is no [integer, integer, integer]: find it
        for index, bucket in enumerate(buckets):
            bucket_where = json_path(where, index)
            if not (isinstance(bucket, list) and len(bucket) == 3):
                src.fail(bucket_where, f"{json_kind(bucket)}, expected "
                         "[lowest, highest, count]")
            for k, value in enumerate(bucket):
                src.as_count(value, json_path(bucket_where, k))
        raise AssertionError(f"{where}: buckets neither Triples nor refused")
    flat = triples.flat
    if flat and min(flat) < 0:
        index = next(i for i, value in enumerate(flat) if value < 0)
        src.as_count(flat[index], json_path(json_path(where, index // 3), index % 3))
    if any(map(operator.lt, flat[1::3], flat[0::3])):
        index, (low, high, _) = next((i, b) for i, b in enumerate(triples) if b[1] < b[0])
        src.fail(json_path(where, index), f"highest {high} is below lowest {low}")
    return triples
