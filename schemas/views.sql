-- Tables, views and macros of the store's DuckLake catalog, generated from treebuild/store/catalog.py.
-- Regenerate: python -c "from treebuild.store.catalog import table_sql, view_sql; print(table_sql()); print(view_sql())"
-- After the tables exist (catalog.NOT_INLINED): CALL <catalog>.set_option('data_inlining_row_limit', 0, table_name => 'grids');

CREATE TABLE IF NOT EXISTS trees (
  doc_id VARCHAR,
  version INTEGER,
  created_at TIMESTAMPTZ,
  source_uri VARCHAR,
  source_name VARCHAR,
  sha256 VARCHAR,
  size_bytes BIGINT,
  format VARCHAR,
  page_count INTEGER,
  unit_count INTEGER,
  title VARCHAR,
  file_metadata MAP(VARCHAR, VARCHAR),
  meta MAP(VARCHAR, VARCHAR),
  settings VARCHAR,
  settings_hash VARCHAR,
  builder_version VARCHAR,
  method VARCHAR,
  description VARCHAR,
  description_key VARCHAR,
  model VARCHAR,
  calls INTEGER,
  prompt_tokens BIGINT,
  completion_tokens BIGINT,
  cost_usd DOUBLE,
  retries INTEGER,
  failures MAP(VARCHAR, VARCHAR),
  reused_summaries INTEGER,
  build_seconds DOUBLE,
  node_count INTEGER,
  max_depth INTEGER,
  stats VARCHAR,
  warnings VARCHAR[],
  schema_version SMALLINT,
  load_id VARCHAR,
  findings STRUCT(code VARCHAR, stage VARCHAR, message VARCHAR, page INTEGER, count INTEGER)[]
);
CREATE TABLE IF NOT EXISTS nodes (
  doc_id VARCHAR,
  version INTEGER,
  node_id VARCHAR,
  parent_id VARCHAR,
  depth SMALLINT,
  ordinal INTEGER,
  title VARCHAR,
  origin VARCHAR,
  confidence FLOAT,
  start_page INTEGER,
  end_page INTEGER,
  start_unit INTEGER,
  start_char INTEGER,
  end_unit INTEGER,
  end_char INTEGER,
  own_end_unit INTEGER,
  own_end_char INTEGER,
  path_ids VARCHAR[],
  child_count INTEGER,
  text_chars BIGINT,
  text_sha256 VARCHAR,
  summary VARCHAR,
  summary_origin VARCHAR,
  summary_key VARCHAR,
  schema_version SMALLINT,
  load_id VARCHAR
);
CREATE TABLE IF NOT EXISTS units (
  doc_id VARCHAR,
  version INTEGER,
  unit_index INTEGER,
  kind VARCHAR,
  page INTEGER,
  label VARCHAR,
  heading_level SMALLINT,
  style VARCHAR,
  text VARCHAR,
  schema_version SMALLINT,
  load_id VARCHAR
);
CREATE TABLE IF NOT EXISTS grids (
  doc_id VARCHAR,
  version INTEGER,
  table_index INTEGER,
  node_id VARCHAR,
  unit_index INTEGER,
  start_char INTEGER,
  end_char INTEGER,
  page INTEGER,
  bbox FLOAT[],
  title VARCHAR,
  header_rows SMALLINT,
  label_columns SMALLINT,
  n_rows INTEGER,
  n_cols INTEGER,
  header VARCHAR[][],
  rows VARCHAR[][],
  row_labels VARCHAR[],
  markdown VARCHAR,
  schema_version SMALLINT,
  load_id VARCHAR
);

CREATE OR REPLACE VIEW latest_trees AS
  SELECT * FROM trees QUALIFY row_number() OVER (PARTITION BY doc_id ORDER BY version DESC) = 1;
CREATE OR REPLACE VIEW latest_nodes AS
  SELECT n.* FROM nodes n SEMI JOIN latest_trees t ON n.doc_id = t.doc_id AND n.version = t.version;
CREATE OR REPLACE VIEW tables AS
  SELECT doc_id, version, node_id, table_index, page, title, to_json(header) AS header, to_json(rows) AS rows,
         to_json(row_labels) AS row_labels, n_rows, n_cols, markdown, unit_index, start_char, end_char, bbox
  FROM grids;
CREATE OR REPLACE VIEW latest_tables AS
  SELECT g.* FROM tables g SEMI JOIN latest_trees t ON g.doc_id = t.doc_id AND g.version = t.version;
CREATE OR REPLACE VIEW store_info AS
  SELECT 2 AS schema_version, '6' AS catalog_format;
CREATE OR REPLACE MACRO tree_version(d, v) AS
  coalesce(nullif(v, 0), (SELECT max(version) FROM trees WHERE doc_id = d));
CREATE OR REPLACE MACRO subtree(d, nid, v := 0) AS TABLE
  SELECT * FROM nodes
  WHERE doc_id = d AND version = tree_version(d, v) AND (node_id = nid OR list_contains(path_ids, nid))
  ORDER BY node_id;
CREATE OR REPLACE MACRO node_path(d, nid, v := 0) AS TABLE
  WITH target AS (
    SELECT path_ids FROM nodes WHERE doc_id = d AND version = tree_version(d, v) AND node_id = nid
  )
  SELECT n.* FROM nodes n, target
  WHERE n.doc_id = d AND n.version = tree_version(d, v)
    AND (n.node_id = nid OR list_contains(target.path_ids, n.node_id))
  ORDER BY n.depth;
CREATE OR REPLACE MACRO node_text(d, nid, v := 0) AS TABLE
  WITH n AS (
    SELECT * FROM nodes WHERE doc_id = d AND version = tree_version(d, v) AND node_id = nid
  ), u AS (
    SELECT unit_index, text FROM units WHERE doc_id = d AND version = tree_version(d, v)
  )
  SELECT n.doc_id, n.version, n.node_id, n.title,
         coalesce(string_agg(
           CASE
             WHEN u.unit_index = n.start_unit AND u.unit_index = n.end_unit
               THEN substr(u.text, n.start_char + 1, n.end_char - n.start_char)
             WHEN u.unit_index = n.start_unit THEN substr(u.text, n.start_char + 1)
             WHEN u.unit_index = n.end_unit THEN substr(u.text, 1, n.end_char)
             ELSE u.text
           END, chr(10) ORDER BY u.unit_index), '') AS text
  FROM n JOIN u
    ON u.unit_index BETWEEN n.start_unit AND n.end_unit
   AND NOT (u.unit_index = n.end_unit AND n.end_char = 0 AND n.end_unit > n.start_unit)
  GROUP BY n.doc_id, n.version, n.node_id, n.title;

