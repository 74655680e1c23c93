-- uniqueid 1.8 -> 1.9 (in progress): see CHANGELOG.md.

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.9'" to load this file. \quit
