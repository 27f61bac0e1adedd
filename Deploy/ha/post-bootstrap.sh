#!/usr/bin/env bash
# Patroni's post_bootstrap for the `ha` compose profile (Deploy/ha/patroni.yml): runs once, on the
# node that bootstraps the cluster, before it takes the leader lock, so HAProxy (which sends only to
# the lock holder) never leads a gateway to a primary without its database. Patroni passes the
# superuser's connection string (local socket) as $1 and a PGPASSFILE in the environment.
# Creates the gateway's login role, password GATEWAY_DB_PASSWORD (default `sandbox-only`, as the
# replicas profile's POSTGRES_PASSWORD), and the `gateway` database it owns; safe to run twice.
set -euo pipefail

connection=${1:?usage: post-bootstrap.sh CONNECTION-STRING (Patroni passes it)}
password=${GATEWAY_DB_PASSWORD:-sandbox-only}

# The password goes in as a psql variable, quoted by psql (:'password') and format(%L), so any
# characters are safe; \gexec runs CREATE DATABASE outside a transaction block, as it must.
# statement_timeout 0: Patroni's connection string sets 2 s, and CREATE DATABASE copies a template.
psql --no-psqlrc --quiet --set ON_ERROR_STOP=1 --set password="$password" --dbname "$connection" <<'SQL'
SET statement_timeout = 0;
SET synchronous_commit = local;
SELECT format('CREATE ROLE gateway LOGIN PASSWORD %L', :'password')
 WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'gateway') \gexec
SELECT format('ALTER ROLE gateway LOGIN PASSWORD %L', :'password') \gexec
SELECT 'CREATE DATABASE gateway OWNER gateway'
 WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_database WHERE datname = 'gateway') \gexec
SQL
echo "post-bootstrap: role gateway and database gateway are ready" >&2
