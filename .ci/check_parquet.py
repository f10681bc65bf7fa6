"""Reads every Parquet table of a published day with pyarrow and DuckDB (SPEC §22): the types the SPEC
names, statistics present, and each table equal to its CSV row for row once the CSV is typed by the
manifest (DuckDB EXCEPT ALL both ways empty); then runs views.sql. Usage: check_parquet.py DAY_DIR"""
import json
import sys

import duckdb
import pyarrow.parquet as pq

day = sys.argv[1]
manifest = json.load(open(f"{day}/_manifest.json"))
outputs = {o["name"]: o for o in manifest["outputs"]}
EXPECTED = {  # manifest type -> (pyarrow type text)
    "string": "string", "currency": "string", "month": "string", "integer": "int64", "rate": "decimal128(18, 6)",
    "money": "decimal128(18, 3)", "date": "date32[day]", "instant": "timestamp[ms, tz=UTC]", "boolean": "bool",
}
# Money in the CSV is an integer of milliunits: the DECIMAL(18,3) column's unscaled value (compared as such).
DUCK = {"string": "VARCHAR", "currency": "VARCHAR", "month": "VARCHAR", "integer": "BIGINT", "rate": "DECIMAL(18,6)",
        "money": "BIGINT", "date": "DATE", "instant": "TIMESTAMPTZ", "boolean": "BOOLEAN"}
failures = 0
con = duckdb.connect()
con.execute("SET TimeZone = 'UTC'")
tables = [name for name in outputs if name.endswith(".parquet")]
assert tables, "no .parquet output in the manifest"
for name in tables:
    output = outputs[name]
    path = f"{day}/{name}"
    file = pq.ParquetFile(path)
    schema = file.schema_arrow
    for column in output["schema"]:
        actual = str(schema.field(column["name"]).type)
        if actual != EXPECTED[column["type"]]:
            print(f"FAIL {name}: {column['name']} is {actual}, expected {EXPECTED[column['type']]}")
            failures += 1
    if file.metadata.num_rows != output["rows"]:
        print(f"FAIL {name}: {file.metadata.num_rows} rows, manifest says {output['rows']}")
        failures += 1
    for group in range(file.metadata.num_row_groups):
        for index in range(file.metadata.num_columns):
            stats = file.metadata.row_group(group).column(index).statistics
            if stats is None or not stats.has_null_count:
                print(f"FAIL {name}: row group {group} column {index} has no statistics")
                failures += 1
    pq.read_table(path)  # every page decodes
    csv = name.replace(".parquet", ".csv.gz")
    if csv in outputs:
        columns = ", ".join(f"'{c['name']}': '{DUCK[c['type']]}'" for c in output["schema"])
        con.execute(f"""CREATE OR REPLACE TEMP TABLE c AS SELECT * FROM read_csv('{day}/{csv}', header=true,
                        columns={{{columns}}}, timestampformat='%Y-%m-%dT%H:%M:%S.%gZ', hive_partitioning = false)""")
        select = ", ".join(f'CAST("{c["name"]}" * 1000 AS BIGINT) AS "{c["name"]}"' if c["type"] == "money" else f'"{c["name"]}"'
                           for c in output["schema"])
        con.execute(f"CREATE OR REPLACE TEMP TABLE p AS SELECT {select} FROM read_parquet('{path}', hive_partitioning = false)")
        for a, b in (("c", "p"), ("p", "c")):
            extra = con.execute(f"SELECT count(*) FROM (SELECT * FROM {a} EXCEPT ALL SELECT * FROM {b})").fetchone()[0]
            if extra:
                print(f"FAIL {name}: {extra} rows of {a} not in {b}")
                failures += 1
views = open(f"{day}/views.sql").read()
con.execute(views)
for name in tables:
    table = name.replace(".parquet", "")
    con.execute(f"SELECT count(*) FROM {table}").fetchone()
print(f"parquet: {len(tables)} tables read by pyarrow and DuckDB, views.sql ran" if not failures else f"parquet: {failures} failures")
sys.exit(1 if failures else 0)
