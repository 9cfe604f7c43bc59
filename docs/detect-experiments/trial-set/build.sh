#!/bin/sh
# Rebuilds /tmp/dtrial/set from the Debian 12 packages listed in packages.txt
# (pinned versions; if a +deb12uN version has left the archive, drop the "=VERSION").
set -e
D=/tmp/dtrial
mkdir -p $D/debs $D/x
cd $D/debs
apt-get download $(cat $D/packages.txt) || apt-get download $(sed 's/=.*//' $D/packages.txt)
for f in *.deb; do n=$(dpkg-deb -f "$f" Package); mkdir -p $D/x/$n; dpkg-deb -x "$f" $D/x/$n; done
python3 $D/build.py 2> $D/build.log
echo "built: $(wc -l < $D/set/manifest.tsv) lines in $D/set/manifest.tsv"
