# Session 48, call 8 (run as one command on the warm machine of call 7): the
# issue's table on the tree landed, outputs in call8/.
cd /tmp && timeout 175 python3 -P -m dream bench graph --graph kron --scale 22 --kernels bfs,cc --layouts csr --backend direct \
  --oversubscription 0 --runs 3 --systems in_memory,uvm,dream --out $OUT/g > $OUT/g.log 2>&1; echo rc=$?
