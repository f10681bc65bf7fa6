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
    "money": "BIGINT", "currency": "VARCHAR",
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
                "currency": ("NOT regexp_matches({c}, '^[A-Z]{{3}}$')", "an ISO 4217 code"),
            }
            for column in output["schema"]:
                if column["type"] not in checks:
                    continue
                condition, expected = checks[column["type"]]
                if column["name"].startswith(("lift", "cs_")):  # a difference of two rates, or its interval
                    condition, expected = "{c} < -1 OR {c} > 1", "in [-1, 1]"
                bad = con.execute(f"SELECT count(*) FROM report WHERE {condition.format(c=column['name'])}").fetchone()[0]
                if bad:
                    print(f"FAIL {output['name']}: {bad} values of {column['name']} are not {expected}")
                    failures += 1
        elif output["name"].endswith(".ndjson.gz"):
            rows = con.execute(f"SELECT count(*) FROM read_json_auto('{path}', format='newline_delimited')").fetchone()[0] \
                if output["rows"] else 0
        elif output["name"].endswith(".html"):
            page = open(path, encoding="utf-8").read()
            sections = ["active", "churn", "money", "expiration", "offers", "retention", "outlook", "campaigns", "refunds", "quality"]
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
        failures += check_money(con, directory)
    return 1 if failures else 0


def check_money(con, directory: str) -> int:
    """net = gross - refunds on every revenue row; the summary's money block equals the month's sums."""
    revenue = os.path.join(directory, "revenue_monthly.csv.gz")
    mrr = os.path.join(directory, "mrr_monthly.csv.gz")
    bad = con.execute(f"SELECT count(*) FROM read_csv('{revenue}', header=true) WHERE net <> gross - refunds").fetchone()[0]
    if bad:
        print(f"FAIL revenue_monthly.csv.gz: {bad} rows where net is not gross - refunds")
        return 1
    summary = json.loads(__import__("gzip").open(os.path.join(directory, "summary.json.gz")).read())
    money = summary.get("money")
    if money is None:
        print("money: no reporting currency")
        return 0
    month = summary["lastFullMonth"]["month"]
    sums = con.execute(f"""SELECT coalesce(sum(gross), 0), coalesce(sum(refunds), 0), coalesce(sum(net), 0),
                                  coalesce(sum(proceeds), 0)
                           FROM read_csv('{revenue}', header=true, types={{'month': 'VARCHAR'}}) WHERE month = '{month}'""").fetchone()
    mrr_end = con.execute(f"""SELECT coalesce(sum(mrr_end), 0) FROM read_csv('{mrr}', header=true, types={{'month': 'VARCHAR'}})
                              WHERE month = '{month}'""").fetchone()[0]
    expected = money["lastFullMonth"]
    found = {"gross": sums[0], "refunds": sums[1], "net": sums[2], "proceeds": sums[3], "mrrEnd": mrr_end}
    if any(found[key] != expected[key] for key in found):
        print(f"FAIL summary.json.gz money {expected} but the tables sum to {found}")
        return 1
    print(f"money ({money['currency']}), {month}:", found)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
