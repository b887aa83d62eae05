#!/bin/sh
# The official postgres image's start, in short: a first start makes the cluster with
# POSTGRES_USER as its superuser (the password from POSTGRES_PASSWORD_FILE, asked over TCP)
# and POSTGRES_DB (UTF-8, as the image does); every start runs `postgres` as the postgres user with the given options.
set -eu
[ "${1:-}" = postgres ] && shift
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    password=$(mktemp)
    head -n 1 "$POSTGRES_PASSWORD_FILE" > "$password"
    chown postgres "$password"
    as_postgres initdb -D "$PGDATA" -U "$POSTGRES_USER" -E UTF8 --locale=C.UTF-8 --pwfile="$password" \
        --auth-local=trust --auth-host=scram-sha-256 > /dev/null
    rm -f "$password"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start > /dev/null
    as_postgres psql -q -U "$POSTGRES_USER" -d postgres -c "CREATE DATABASE \"$POSTGRES_DB\""
    as_postgres pg_ctl -D "$PGDATA" -m fast -w stop > /dev/null
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups \
    postgres -D "$PGDATA" -c listen_addresses='*' "$@"
