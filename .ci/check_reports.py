#!/usr/bin/env python3
"""Opens every report of a published day the way an analyst would (DuckDB, with the manifest's schema)
and checks row counts and types. Usage: check_reports.py OUT/dt=YYYY-MM-DD"""
import json
import os
import sys

import duckdb

DUCK_TYPES = {
    "string": "VARCHAR", "integer": "BIGINT", "rate": "DOUBLE", "boolean": "BOOLEAN",
    "instant": "TIMESTAMPTZ", "date": "DATE", "month": "VARCHAR", "string[]": "VARCHAR[]",
}


def main(directory: str) -> int:
    manifest = json.load(open(os.path.join(directory, "_manifest.json")))
    assert os.path.exists(os.path.join(directory, "_SUCCESS")), "_SUCCESS missing"
    con = duckdb.connect()
    con.execute("SET TimeZone='UTC'")
    failures = 0
    for output in manifest["outputs"]:
        path = os.path.join(directory, output["name"])
        if output["name"].endswith(".csv.gz"):
            columns = ", ".join(f"'{c['name']}': '{DUCK_TYPES[c['type']]}'" for c in output["schema"])
            con.execute(f"""CREATE OR REPLACE TEMP TABLE report AS SELECT * FROM read_csv('{path}', header=true,
                            columns={{{columns}}}, timestampformat='%Y-%m-%dT%H:%M:%S.%gZ')""")
            rows = con.execute("SELECT count(*) FROM report").fetchone()[0]
            checks = {  # column type: (SQL condition for a bad value, what a good value is)
                "month": ("NOT regexp_matches({c}, '^[0-9]{{4}}-[0-9]{{2}}$')", "YYYY-MM"),
                "rate": ("{c} < 0 OR {c} > 1", "in [0, 1]"),
            }
            for column in output["schema"]:
                if column["type"] not in checks:
                    continue
                condition, expected = checks[column["type"]]
                bad = con.execute(f"SELECT count(*) FROM report WHERE {condition.format(c=column['name'])}").fetchone()[0]
                if bad:
                    print(f"FAIL {output['name']}: {bad} values of {column['name']} are not {expected}")
                    failures += 1
        elif output["name"].endswith(".ndjson.gz"):
            rows = con.execute(f"SELECT count(*) FROM read_json_auto('{path}', format='newline_delimited')").fetchone()[0] \
                if output["rows"] else 0
        elif output["name"].endswith(".html"):
            page = open(path, encoding="utf-8").read()
            sections = ["active", "churn", "expiration", "offers", "retention", "campaigns", "quality"]
            missing = [s for s in sections if f'<section id="{s}">' not in page]
            if missing or len(page.encode()) >= 2_000_000:
                print(f"FAIL {output['name']}: missing sections {missing} or over 2 MB")
                failures += 1
            rows = 0
        else:
            rows = 1 if output["rows"] == 1 else 0
            json.loads(__import__("gzip").open(path).read())
        status = "ok" if rows == output["rows"] else "FAIL"
        if status == "FAIL":
            failures += 1
        print(f"{status} {output['name']}: {rows} rows (manifest {output['rows']})")
    if failures == 0:
        churn = con.execute(f"""
            SELECT month, sum(churned) AS churned, sum(active_start) AS active_start,
                   round(sum(churned) / nullif(sum(active_start), 0), 6) AS churn_rate
            FROM read_csv('{os.path.join(directory, 'churn_monthly.csv.gz')}', header=true)
            GROUP BY month ORDER BY month DESC LIMIT 3""").fetchall()
        print("latest monthly churn:", churn)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
