#!/usr/bin/python3
"""Lists the functions longer than a limit (80 lines by default) in C++ sources, found with
libclang's Python bindings (Debian: python3-clang-14): each function's name, file, first line and
length in lines, longest first. A function whose body is one initialised table (a data table) is
listed apart and does not count. Flags come from the build's compile_commands.json when there is
one (cmake exports it), else C++20 with the project's include folders.

  scripts/long_functions.py [--max N] [--build DIR] [--fail] PATH...

PATH: files or folders (every .cpp and .h below them). --fail: exit 1 when any function is over
the limit. Uses /usr/bin/python3, where Debian installs the bindings.
"""
import argparse
import json
import os
import sys

import clang.cindex as ci

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUNCTIONS = {
    ci.CursorKind.FUNCTION_DECL, ci.CursorKind.CXX_METHOD, ci.CursorKind.CONSTRUCTOR,
    ci.CursorKind.DESTRUCTOR, ci.CursorKind.FUNCTION_TEMPLATE, ci.CursorKind.CONVERSION_FUNCTION,
}
DEFAULT_FLAGS = ['-x', 'c++', '-std=c++20'] + ['-I' + os.path.join(ROOT, d) for d in
                                               ('core', 'app', 'app/cli', 'app/explorer', 'views')]


def sources(paths):
    for path in paths:
        if os.path.isfile(path):
            yield os.path.abspath(path)
            continue
        for folder, _, names in os.walk(path):
            for name in sorted(names):
                if name.endswith(('.cpp', '.h')):
                    yield os.path.abspath(os.path.join(folder, name))


def compile_flags(build):
    """File -> its compiler arguments (without the compiler, -o, -c and the file)."""
    path = os.path.join(build, 'compile_commands.json')
    if not os.path.exists(path):
        return {}
    flags = {}
    for entry in json.load(open(path)):
        args = entry.get('arguments') or entry['command'].split()
        kept, skip = [], False
        for a in args[1:]:
            if skip:
                skip = False
                continue
            if a in ('-o', '-MF', '-MT', '-MQ'):
                skip = True
                continue
            if a in ('-c', entry['file']) or a.startswith('-M'):
                continue
            kept.append(a)
        flags[os.path.abspath(os.path.join(entry['directory'], entry['file']))] = (entry['directory'], kept)
    return flags


def is_table(cursor, length):
    """A body that is one declaration (a table) taking most of the function's lines."""
    body = [c for c in cursor.get_children() if c.kind == ci.CursorKind.COMPOUND_STMT]
    if not body:
        return False
    statements = list(body[0].get_children())
    for s in statements:
        try:
            kind = s.kind
        except ValueError:
            continue
        if kind == ci.CursorKind.DECL_STMT:
            lines = s.extent.end.line - s.extent.start.line + 1
            if lines >= 0.8 * length:
                return True
    return False


def functions(tu, path):
    def walk(cursor):
        for c in cursor.get_children():
            try:
                kind = c.kind
            except ValueError:  # a kind newer than these bindings
                continue
            f = c.location.file
            if f is None or os.path.abspath(f.name) != path:
                if kind in (ci.CursorKind.NAMESPACE, ci.CursorKind.TRANSLATION_UNIT):
                    yield from walk(c)
                continue
            if kind in FUNCTIONS and c.is_definition():
                yield c
            elif kind in (ci.CursorKind.NAMESPACE, ci.CursorKind.CLASS_DECL, ci.CursorKind.STRUCT_DECL,
                            ci.CursorKind.CLASS_TEMPLATE):
                yield from walk(c)
    yield from walk(tu.cursor)


def qualified(cursor):
    names = []
    c = cursor
    while c is not None and c.kind != ci.CursorKind.TRANSLATION_UNIT:
        if c.kind not in (ci.CursorKind.NAMESPACE, ci.CursorKind.TRANSLATION_UNIT) and c.spelling:
            names.append(c.spelling)
        c = c.semantic_parent
    return '::'.join(reversed(names))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('paths', nargs='+')
    parser.add_argument('--max', type=int, default=80)
    parser.add_argument('--build', default=os.path.join(ROOT, 'build', 'release'))
    parser.add_argument('--fail', action='store_true')
    args = parser.parse_args()
    paths = list(sources(args.paths))
    flags = compile_flags(args.build)
    index = ci.Index.create()
    long, tables, seen = [], [], set()
    for path in paths:
        directory, extra = flags.get(path, (ROOT, DEFAULT_FLAGS))
        if path.endswith('.h'):
            extra = DEFAULT_FLAGS
        os.chdir(directory)
        tu = index.parse(path, args=extra + ['-Wno-everything'])
        for f in functions(tu, path):
            length = f.extent.end.line - f.extent.start.line + 1
            key = (path, f.extent.start.line)
            if length <= args.max or key in seen:
                continue
            seen.add(key)
            row = (length, qualified(f), os.path.relpath(path, ROOT), f.extent.start.line)
            (tables if is_table(f, length) else long).append(row)
    for title, rows in (('over %d lines' % args.max, long), ('data tables (not counted)', tables)):
        print('%d function(s) %s' % (len(rows), title))
        for length, name, path, line in sorted(rows, key=lambda r: (-r[0], r[2], r[3])):
            print('  %4d  %s  %s:%d' % (length, name, path, line))
    return 1 if args.fail and long else 0


if __name__ == '__main__':
    sys.exit(main())
