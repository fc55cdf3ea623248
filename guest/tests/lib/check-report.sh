# Readers of a `ucounttop check --json` report in $J (sourced, not run):
# one line per finding, the number failing, and the report as KTAP
# diagnostics.
each_finding() { sed 's/,{"class":/\n{"class":/g; s/"findings":\[{"class":/\n{"class":/' $J | grep '^{"class":'; }
failing() { grep -o '"failing":true' $J | wc -l | tr -d ' '; }
show() { each_finding | sed 's/,"stacks":.*//; s/^/# /'; sed 's/"findings":\[.*//; s/^/# /' $J; }
