/** The folder holding initdb, pg_ctl and postgres, or undefined when PostgreSQL is not installed. */
export function postgresBinDir(): string | undefined;
