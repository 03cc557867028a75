#!/bin/bash -eu
# ClusterFuzzLite builds the fuzz targets exactly as OSS-Fuzz does.
exec bash -eu "$SRC/equivcheck/oss-fuzz/build.sh"
