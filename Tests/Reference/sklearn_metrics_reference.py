"""The scikit-learn figures ClassificationMetricsTests expects (scikit-learn 1.9.1):
  python3 Tests/Reference/sklearn_metrics_reference.py
"""
import numpy as np
from sklearn.metrics import precision_recall_fscore_support, confusion_matrix, accuracy_score, top_k_accuracy_score
y = [0,0,0,1,1,2,2,2,2,3,3,0,1]
ranked = [[0,1,2,3],[1,0,2,3],[0,2,1,3],[1,2,0,3],[2,1,0,3],[2,0,1,3],[2,1,0,3],[0,1,2,3],[1,2,0,3],[0,3,1,2],[0,1,3,2],[0,1,2,3],[1,0,2,3]]
pred = [r[0] for r in ranked]
p,r,f,s = precision_recall_fscore_support(y, pred, labels=[0,1,2,3], zero_division=0)
print("precision", list(map(float,p))); print("recall", list(map(float,r))); print("f1", list(map(float,f))); print("support", list(map(int,s)))
print("cm", confusion_matrix(y, pred, labels=[0,1,2,3]).tolist())
print("acc", accuracy_score(y, pred))
scores = np.zeros((len(y),4))
for i,rk in enumerate(ranked):
    for j,c in enumerate(rk): scores[i,c] = 4-j
print("top2", top_k_accuracy_score(y, scores, k=2, labels=[0,1,2,3]))
# "other": predictions 4 are no class (labels 0...3)
y2 = [0,0,1,1,2,2,3]
p2 = [0,4,1,4,2,0,4]
p,r,f,s = precision_recall_fscore_support(y2, p2, labels=[0,1,2,3], zero_division=0)
print("other precision", list(map(float,p))); print("other recall", list(map(float,r))); print("other f1", list(map(float,f))); print("other support", list(map(int,s)))
print("other cm", confusion_matrix(y2, p2, labels=[0,1,2,3]).tolist(), "acc", accuracy_score(y2, p2))
# classification_report's "macro avg" and "weighted avg" rows: average="macro" and "weighted"
for average in ["macro", "weighted"]:
    p,r,f,_ = precision_recall_fscore_support(y, pred, labels=[0,1,2,3], average=average, zero_division=0)
    print(average, float(p), float(r), float(f))
    p,r,f,_ = precision_recall_fscore_support(y2, p2, labels=[0,1,2,3], average=average, zero_division=0)
    print("other", average, float(p), float(r), float(f))
