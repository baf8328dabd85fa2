-- decisions_run: a command reads the decisions its own runs recorded (the rejections
-- and warnings it prints first), and `sccg why` the newest run of a stage on a subject.
CREATE INDEX decisions_run ON decisions(run_id, verdict);
