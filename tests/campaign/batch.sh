#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run campaign scenarios one after the other in one boot of the guest:
#
#   tests/campaign/batch.sh SEED...
#
# Each scenario's output is framed by "# begin SEED" and "# end SEED RC"
# for tests/campaign/run, and a failed one leaves its files in
# /xfer/out/seed-SEED (image/run -o copies them out). The scenario runs
# from a copy: bash reads a script as it goes, and the checkout it comes
# from may change while the campaign runs.
dir=$(cd "$(dirname "$0")" && pwd)
# On a stock kernel (no series' events) the two reports each scenario sets
# aside as the stock defects the series fixes may also come between
# scenarios (stock 7.3 prints the lag report about 10 s after boot): the
# boot's own scan sets them aside too. Each scenario still checks its own
# window, where only those two are set aside, the warning only with
# dl_server_stop() in its trace.
. "$dir/../guest/lib.sh"
if stock_kernel; then
	known_report "$STOCK_LAG_REPORT" "stock kernel: $STOCK_LAG_WHY"
	known_report "$STOCK_BW_REPORT" "stock kernel: $STOCK_BW_WHY"
fi
copy=$(mktemp /tmp/scenario.XXXXXX) || exit 1
trap 'rm -f "$copy"' EXIT
for seed in "$@"; do
	echo "# begin $seed"
	cp "$dir/scenario.sh" "$copy" &&
		CAMPAIGN_DIR=$dir bash "$copy" "$seed" /xfer/out 2>&1
	echo "# end $seed $?"
done
