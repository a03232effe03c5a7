#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run campaign scenarios one after the other in one boot of the guest:
#
#   tests/campaign/batch.sh SEED...
#
# Each scenario's output is framed by "# begin SEED" and "# end SEED RC"
# for tests/campaign/run, and a failed one leaves its files in
# /xfer/out/seed-SEED (image/run -o copies them out).
for seed in "$@"; do
	echo "# begin $seed"
	"$(dirname "$0")/scenario.sh" "$seed" /xfer/out 2>&1
	echo "# end $seed $?"
done
