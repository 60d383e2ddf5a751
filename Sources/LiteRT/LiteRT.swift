import CLiteRt
